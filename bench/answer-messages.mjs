// How the bench scripts read an answer body; no dependency, so a script that builds nothing can use it.

/** The JSON-RPC messages of an answer body: one JSON message, or every `data:` event of an SSE stream. */
export function messagesOf(contentType, text) {
  if (!contentType?.includes('text/event-stream')) return [JSON.parse(text)];
  return text
    .split(/\r?\n\r?\n/)
    .map((event) =>
      event
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n'),
    )
    .filter((data) => data.length > 0)
    .map((data) => JSON.parse(data));
}
