// `pnpm start`: the app on http://127.0.0.1:3000, talking to PARLEY_BASE_URL with PARLEY_TOKEN,
// or to a reference server started here when PARLEY_BASE_URL is not set.
import { DEMO_USER, startServer } from '@parley/reference-server';
import { startApp } from './app.js';

const external = process.env.PARLEY_BASE_URL;
const parley = external ? undefined : await startServer({ port: 0 });
const app = await startApp({
  parleyBaseUrl: external ?? parley?.url ?? '',
  parleyToken: process.env.PARLEY_TOKEN ?? DEMO_USER.token,
  port: Number(process.env.PORT ?? 3000),
});
console.log(`Open ${app.url} (Parley at ${external ?? parley?.url}). Try "/delay 200" and "/say ..." lines.`);
