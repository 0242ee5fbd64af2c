/** AOT processing: the runtime hints the starter needs in an AOT-processed application. */
@NullMarked
package dev.idempotency.aot;

import org.jspecify.annotations.NullMarked;
