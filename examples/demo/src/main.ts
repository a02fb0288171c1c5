import { runDemo } from './demo.js';

try {
  await runDemo({ output: process.stdout });
} catch (error) {
  console.error(error);
  process.exitCode = 1;
}
