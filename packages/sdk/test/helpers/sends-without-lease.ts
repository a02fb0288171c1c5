/**
 * A client `fetch` for an in-process reference server that stands in for a server without the lease
 * extension's send pickup: a send (`POST /v1/messages/:id[/stream]`) reaches it without its
 * `parley-lease` token, so the reply shows its calls `PENDING` until a beat. Beats and reports keep
 * their token.
 */
export function sendsWithoutLease(
  serverFetch: (request: Request) => Promise<Response>,
): (input: RequestInfo | URL, init?: RequestInit) => Promise<Response> {
  return (input, init) => {
    const request = new Request(input, init);
    const isSend = /^\/v1\/messages\/[^/]+(\/stream)?$/.test(new URL(request.url).pathname);
    if (isSend && request.method === 'POST') request.headers.delete('parley-lease');
    return serverFetch(request);
  };
}
