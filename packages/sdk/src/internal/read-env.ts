type EnvHost = {
  Deno?: { env?: { get(name: string): string | undefined } };
  process?: { env?: Record<string, string | undefined> };
};

/**
 * An environment variable where the runtime has them (Node, Bun, Deno), trimmed; `undefined` when
 * unset, empty, or not readable (a browser, Deno without `--allow-env`).
 */
export function readEnv(name: string): string | undefined {
  const host = globalThis as EnvHost;
  try {
    const value = host.Deno?.env ? host.Deno.env.get(name) : host.process?.env?.[name];
    return value?.trim() || undefined;
  } catch {
    return undefined;
  }
}
