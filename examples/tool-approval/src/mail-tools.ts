import { defineTool } from '@parley/sdk';
import { z } from 'zod';

/** Where sent emails go: the side effect a person approves. A real app would call its mail API. */
export class Outbox {
  readonly sent: Array<{ id: string; to: string; body: string }> = [];

  send(to: string, body: string): string {
    const id = `msg_${this.sent.length + 1}`;
    this.sent.push({ id, to, body });
    return id;
  }
}

const CONTACTS: Record<string, string> = { ada: 'ada@example.com', grace: 'grace@example.com' };

/**
 * The demo's tools: `lookup_contact` only reads, so it runs at once; `send_email` has a side effect
 * that cannot be taken back, so it waits for a person (`needsApproval: true`).
 */
export function createMailTools(outbox: Outbox) {
  const lookupContact = defineTool({
    name: 'lookup_contact',
    description: 'The email address of a contact, by first name',
    input: z.object({ name: z.string() }),
    output: z.object({ email: z.string() }),
    run: ({ name }) => {
      const email = CONTACTS[name];
      if (email === undefined) throw new Error(`No contact named "${name}"`);
      return { email };
    },
  });
  const sendEmail = defineTool({
    name: 'send_email',
    description: 'Sends an email; asks a person first',
    input: z.object({ to: z.string(), body: z.string() }),
    output: z.object({ id: z.string() }),
    needsApproval: true,
    timeoutMs: 10_000,
    run: ({ to, body }) => ({ id: outbox.send(to, body) }),
  });
  return [lookupContact, sendEmail];
}
