"""The displayed chain of a session file, read again in Python for scripts/derive-corpus-expectations.py
(SCHEMA-NOTES §9): every transcript record's parent, the leaves, the chain from the newest preferred leaf
back to the root, and the chunks of parallel tool calls shown beside it.
"""
from corpus_records import TRANSCRIPT, content_blocks, message_of


def parents(entries):
    """Parent index of every transcript entry. A missing, self-naming or unknown parentUuid
    continues from the previous entry of the same side (plain file order); a record repeating an
    earlier record's uuid and parent is a copy and continues from the previous entry too; a
    forward link (to the last record with that uuid) is kept only when it makes no cycle; compaction
    boundaries follow logicalParentUuid. Returns the transcript indices and {index: parent index}."""
    transcript = [index for index, entry in enumerate(entries) if entry.get("type") in TRANSCRIPT]
    last_with_uuid = {}
    for index in transcript:
        uuid = entries[index].get("uuid")
        if isinstance(uuid, str):
            last_with_uuid[uuid] = index
    parent, latest, previous, forward = {}, {}, {}, []
    for index in transcript:
        entry = entries[index]
        side = bool(entry.get("isSidechain"))
        parent_uuid, uuid = entry.get("parentUuid"), entry.get("uuid")
        if isinstance(parent_uuid, str) and parent_uuid != uuid:
            link = latest.get(parent_uuid)
            if link is None:
                link = last_with_uuid.get(parent_uuid) if last_with_uuid.get(parent_uuid, -1) > index else None
                if link is not None:
                    forward.append((index, previous.get(side)))
            if link is not None and isinstance(uuid, str) and uuid in latest and parent.get(latest[uuid]) == link:
                parent[index] = previous.get(side)
            else:
                parent[index] = link if link is not None else previous.get(side)
        elif parent_uuid is None and isinstance(entry.get("logicalParentUuid"), str):
            parent[index] = latest.get(entry["logicalParentUuid"], previous.get(side))
        else:
            parent[index] = previous.get(side)
        if isinstance(uuid, str):
            latest[uuid] = index
        previous[side] = index

    def makes_cycle(index, start):
        seen, current = set(), start
        while current is not None:
            if current == index or current in seen:
                return True
            seen.add(current)
            current = parent.get(current)
        return False
    for index, fallback in forward:
        if makes_cycle(index, parent[index]):
            parent[index] = None if makes_cycle(index, fallback) else fallback
    return transcript, parent


def is_preferred_leaf(entry):
    """A leaf of the main conversation: not a sidechain, a team member's or a meta record."""
    return not entry.get("isSidechain") and not entry.get("teamName") and not entry.get("isMeta")


def chain(entries):
    """SCHEMA-NOTES §9 over the parents above, following logicalParentUuid across compaction boundaries.
    Returns the shown indices in file order and how many leaves are not shown."""
    transcript, parent = parents(entries)
    has_child = {index for index in parent.values() if index is not None}
    leaves = set()
    for index in transcript:
        if index in has_child:
            continue
        seen, current = set(), index
        while current is not None and current not in seen:
            seen.add(current)
            if entries[current]["type"] in ("user", "assistant"):
                leaves.add(current)
                break
            current = parent.get(current)
    preferred = [index for index in leaves if is_preferred_leaf(entries[index])]
    pool = preferred or list(leaves)
    if not pool:
        return [], 0
    on_chain, seen, current = [], set(), max(pool)
    while current is not None and current not in seen:
        seen.add(current)
        on_chain.append(current)
        current = parent.get(current)
    shown = with_parallel_tool_calls(entries, on_chain)
    return sorted(shown), len(set(pool) - shown)


def with_parallel_tool_calls(entries, on_chain):
    """Parallel tool calls: every chunk of a response on the chain, and the tool results
    parented to those chunks, are shown too. Returns the set of shown indices."""
    shown = set(on_chain)
    response_ids = {entries[index]["message"].get("id") for index in on_chain if entries[index]["type"] == "assistant"} - {None}
    chunks = set()
    for index, entry in enumerate(entries):
        if entry.get("type") == "assistant" and message_of(entry).get("id") in response_ids:
            shown.add(index)
            chunks.add(entry.get("uuid"))
    for index, entry in enumerate(entries):
        if entry.get("type") == "user" and entry.get("parentUuid") in chunks and any(
                block.get("type") == "tool_result" for block in content_blocks(message_of(entry).get("content"))):
            shown.add(index)
    return shown
