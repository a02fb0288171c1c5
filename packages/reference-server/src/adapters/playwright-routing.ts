import type { BrowserContext, Request as PlaywrightRequest, Route } from '@playwright/test';

/** Where the page's requests to Parley go. */
export interface ParleyRouting {
  /** The base URL the app calls, e.g. `http://parley.test`. */
  baseUrl: string;
  /** The server's real address: streamed replies go there. */
  serverUrl: string;
  /** The server's `fetch` in this process: buffered requests are answered by it, no socket. */
  fetch?: (request: Request) => Promise<Response>;
  /** Headers added to every routed request (the test's id). */
  headers: Record<string, string>;
}

/**
 * Routes the context's requests under `baseUrl` to the reference server. A buffered one is answered
 * by `fetch` in this process (`route.fulfill`); a streamed reply goes on to the server's port
 * (`route.continue` with its URL), since a fulfilled body arrives whole: Playwright cannot stream it
 * (microsoft/playwright#33564). Without `fetch` (a shared server), every request goes on to the port.
 */
export async function routeToParley(context: BrowserContext, routing: ParleyRouting): Promise<void> {
  const { baseUrl, serverUrl, fetch, headers } = routing;
  const prefix = `${baseUrl}/`;
  await context.route(
    (url) => url.href === baseUrl || url.href.startsWith(prefix),
    async (route: Route, request: PlaywrightRequest) => {
      const target = serverUrl + request.url().slice(baseUrl.length);
      const allHeaders = { ...(await request.allHeaders()), ...headers };
      if (fetch === undefined || isStreamed(new URL(target).pathname)) {
        await route.continue({ url: target, headers: allHeaders });
        return;
      }
      const body = request.postDataBuffer();
      let response: Response;
      try {
        response = await fetch(
          new Request(target, {
            method: request.method(),
            headers: withoutPseudoHeaders(allHeaders),
            ...(body === null ? {} : { body: new Uint8Array(body) }),
          }),
        );
      } catch {
        // An injected dropped connection: the server's fetch rejects, the page's fetch fails.
        await route.abort('connectionreset');
        return;
      }
      await route.fulfill({
        status: response.status,
        headers: Object.fromEntries(response.headers),
        body: Buffer.from(await response.arrayBuffer()),
      });
    },
  );
}

/** `POST /v1/messages/:sessionId/stream`: the protocol's one streamed reply. */
function isStreamed(pathname: string): boolean {
  return pathname.endsWith('/stream');
}

/** HTTP/2's `:authority` and friends, which Chromium may report and `Headers` refuses. */
function withoutPseudoHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !name.startsWith(':')));
}
