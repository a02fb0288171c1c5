// The text of the JSON responses the core makes, by response, so that an adapter can write it as
// it is instead of reading the response's body stream back (the node adapter does).
const texts = new WeakMap<Response, string>();

/** Remembers that `response`'s body is `text`; returns the response. */
export function withKnownText(response: Response, text: string): Response {
  texts.set(response, text);
  return response;
}

/** The body text of a response the core made with {@link withKnownText}, if it is one. */
export function knownText(response: Response): string | undefined {
  return texts.get(response);
}
