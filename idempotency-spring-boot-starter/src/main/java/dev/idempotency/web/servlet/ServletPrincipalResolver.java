package dev.idempotency.web.servlet;

import dev.idempotency.scope.PrincipalResolver;
import java.security.Principal;
import org.jspecify.annotations.Nullable;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/** The principal of the current servlet request ({@code HttpServletRequest#getUserPrincipal}), for apps without Spring Security. */
public final class ServletPrincipalResolver implements PrincipalResolver {

    @Override
    public @Nullable String currentPrincipal() {
        RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
        if (attributes instanceof ServletRequestAttributes servlet) {
            Principal principal = servlet.getRequest().getUserPrincipal();
            return principal == null ? null : principal.getName();
        }
        return null;
    }
}
