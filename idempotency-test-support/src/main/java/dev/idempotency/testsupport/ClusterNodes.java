package dev.idempotency.testsupport;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/** One node's {@code CLUSTER NODES} answer: what that node believes about every node, itself included. */
final class ClusterNodes {

    private final List<Entry> entries;

    private ClusterNodes(List<Entry> entries) {
        this.entries = entries;
    }

    static ClusterNodes parse(String clusterNodes) {
        return new ClusterNodes(clusterNodes
                .lines()
                .filter(line -> !line.isBlank())
                .map(Entry::parse)
                .collect(Collectors.toList()));
    }

    List<Entry> entries() {
        return entries;
    }

    Optional<Entry> byId(String id) {
        return entries.stream().filter(entry -> entry.id.equals(id)).findFirst();
    }

    /** The entry flagged {@code myself}: the answering node. */
    Entry myself() {
        return entries.stream()
                .filter(entry -> entry.flags.contains("myself"))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("No 'myself' line in CLUSTER NODES: " + entries));
    }

    /** The ids of the nodes this view lists as replicas of {@code masterId}. */
    Set<String> replicasOf(String masterId) {
        return entries.stream()
                .filter(entry -> entry.isReplica() && entry.masterId.equals(masterId))
                .map(entry -> entry.id)
                .collect(Collectors.toSet());
    }

    /**
     * A CLUSTER NODES line: {@code id host:port@bus flags master-id ping-sent pong-recv epoch link-state slot...},
     * where flags are comma-separated ({@code myself,master}), master-id is {@code -} for a master and slots are
     * ranges such as {@code 0-5460} or single slots.
     */
    static final class Entry {

        final String id;
        final String address;
        final Set<String> flags;
        final String masterId;
        final String linkState;
        final List<String> slots;

        private Entry(
                String id, String address, Set<String> flags, String masterId, String linkState, List<String> slots) {
            this.id = id;
            this.address = address;
            this.flags = flags;
            this.masterId = masterId;
            this.linkState = linkState;
            this.slots = slots;
        }

        static Entry parse(String line) {
            String[] fields = line.trim().split(" ");
            if (fields.length < 8) {
                throw new IllegalArgumentException("Not a CLUSTER NODES line: " + line);
            }
            String address = fields[1].split("@")[0];
            return new Entry(
                    fields[0],
                    address,
                    Set.of(fields[2].split(",")),
                    fields[3],
                    fields[7],
                    List.copyOf(Arrays.asList(fields).subList(8, fields.length)));
        }

        boolean isMaster() {
            return flags.contains("master");
        }

        boolean isReplica() {
            return flags.contains("slave");
        }

        /** Whether the view suspects ({@code fail?}) or has agreed ({@code fail}) that this node is down. */
        boolean failing() {
            return flags.contains("fail") || flags.contains("fail?");
        }

        boolean connected() {
            return "connected".equals(linkState);
        }

        @Override
        public String toString() {
            return id + " " + address + " " + String.join(",", flags) + " " + masterId + " " + linkState + " "
                    + String.join(" ", slots);
        }
    }
}
