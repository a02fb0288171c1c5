import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runApprovalDemo } from '../src/approval-demo.js';
import { Outbox } from '../src/mail-tools.js';

function sink() {
  const chunks: string[] = [];
  return { write: (chunk: string) => chunks.push(chunk), text: () => chunks.join('') };
}

/** The person at the terminal: requests and answers, one line each, in the order they are read. */
function scriptedStdin(lines: string[]): Readable {
  return Readable.from(lines.map((line) => `${line}\n`));
}

describe('tool-approval', () => {
  it('asks on the terminal before send_email runs: y sends it, "n REASON" reaches the model as the reason', async () => {
    const output = sink();
    const outbox = new Outbox();
    const code = await runApprovalDemo({
      input: scriptedStdin([
        'email ada: the build is green',
        'y',
        'email grace: lunch is cancelled',
        'n she already knows',
        '/exit',
      ]),
      output,
      who: 'tester',
      outbox,
    });
    expect(code).toBe(0);
    expect(outbox.sent).toEqual([{ id: 'msg_1', to: 'ada@example.com', body: 'the build is green' }]);
    const lines = output.text().split('\n');
    expect(lines[0]).toMatch(/^Embedded reference server at http:\/\/127\.0\.0\.1:\d+$/);
    expect(lines.slice(2)).toEqual([
      'you › email ada: the build is green',
      'assistant › Looking up ada.',
      'tool › lookup_contact → {"email":"ada@example.com"}',
      'assistant › Sending it to ada@example.com.',
      'approve › send_email {"to":"ada@example.com","body":"the build is green"}? [y/N, "n REASON" or "e EDITED_JSON"] y',
      'tool › send_email → {"id":"msg_1"}  (approved by tester)',
      'assistant › Sent: {"id":"msg_1"}',
      'you › email grace: lunch is cancelled',
      'assistant › Looking up grace.',
      'tool › lookup_contact → {"email":"grace@example.com"}',
      'assistant › Sending it to grace@example.com.',
      'approve › send_email {"to":"grace@example.com","body":"lunch is cancelled"}? [y/N, "n REASON" or "e EDITED_JSON"] n she already knows',
      'tool › send_email → ERROR: Tool "send_email" was not run: approval was denied: she already knows  (denied by tester)',
      'assistant › I did not send it. Tool "send_email" was not run: approval was denied: she already knows',
      'bye',
      '',
    ]);
  });

  it('"e JSON" approves the call with an edited input: the edited email is the one sent, and the record says edited', async () => {
    const output = sink();
    const outbox = new Outbox();
    await runApprovalDemo({
      input: scriptedStdin([
        'email ada: lunch at noon',
        'e {"to":"grace@example.com","body":"lunch at one"}',
        '/exit',
      ]),
      output,
      who: 'tester',
      outbox,
    });
    expect(outbox.sent).toEqual([{ id: 'msg_1', to: 'grace@example.com', body: 'lunch at one' }]);
    expect(output.text()).toContain('tool › send_email → {"id":"msg_1"}  (edited by tester)\n');
  });

  it('the end of the input while a question waits is a denial; nothing is sent and the demo ends', async () => {
    const output = sink();
    const outbox = new Outbox();
    const code = await runApprovalDemo({
      input: scriptedStdin(['email ada: deploy now']),
      output,
      who: 'tester',
      outbox,
    });
    expect(code).toBe(0);
    expect(outbox.sent).toEqual([]);
    expect(output.text()).toContain(
      'tool › send_email → ERROR: Tool "send_email" was not run: approval was denied: No one answered: the input ended  (denied by tester)',
    );
    expect(output.text().endsWith('bye\n')).toBe(true);
  });
});
