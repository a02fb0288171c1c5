import { runApprovalDemo } from './approval-demo.js';

process.exitCode = await runApprovalDemo({
  input: process.stdin,
  output: process.stdout,
  interactive: process.stdin.isTTY === true && process.stdout.isTTY === true,
});
