import { Journal } from '@parley/reference-server';
import { describe, expect, it } from 'vitest';
import { harness } from '../helpers/api.js';

// The journal is a ring bounded in entries and in the characters of the bodies it keeps. Counts,
// never times: how many entries, how many characters, how many dropped.
describe('the journal is bounded in entries and bytes', () => {
  it('keeps at most journalLimit entries and counts the ones it dropped', async () => {
    const h = harness({ journalLimit: 5 });
    for (let i = 0; i < 12; i++) await h.call('GET', '/v1/sessions');
    expect(h.server.journal.size).toBe(5);
    expect(h.server.journal.dropped).toBe(7);
    expect(h.server.journal.entries().map((e) => e.seq)).toEqual([8, 9, 10, 11, 12]);
  });

  it('keeps at most journalMaxBytes characters of bodies, dropping the oldest entries', async () => {
    const maxBytes = 10_000;
    const h = harness({ journalMaxBytes: maxBytes });
    const sessionId = await h.createSession();
    const content = 'x'.repeat(1_000);
    for (let i = 0; i < 40; i++) {
      await h.call('POST', `/v1/messages/${sessionId}`, { content: `/say ${content}` });
      // Every send keeps its ~1 000-character request and its ~2 000-character reply.
      expect(h.server.journal.bytes).toBeLessThanOrEqual(maxBytes);
    }
    const kept = h.server.journal.entries();
    expect(kept.length).toBeLessThan(10);
    expect(h.server.journal.dropped).toBe(41 - kept.length);
    // What it kept is whole: the newest send, as it was.
    expect(kept.at(-1)?.body).toEqual({ content: `/say ${content}` });
    expect(kept.at(-1)?.response?.text).toBe(content);
  });

  it('keeps a body longer than journalMaxBodyBytes truncated to it, and says so', async () => {
    const h = harness({ journalMaxBodyBytes: 100 });
    const sessionId = await h.createSession();
    const before = h.server.journal.bytes;
    await h.call('POST', `/v1/messages/${sessionId}`, { content: 'y'.repeat(500) });
    const entry = h.server.journal.last();
    expect(entry?.bodyTruncated).toBe(true);
    expect(typeof entry?.body === 'string' && entry.body.length).toBe(100);
    expect(entry?.response?.bodyTruncated).toBe(true);
    expect(typeof entry?.response?.body === 'string' && entry.response.body.length).toBe(100);
    expect(h.server.journal.bytes - before).toBe(200);
  });

  it('keeps the first journalMaxBodyBytes characters of a streamed reply’s text, and says so', async () => {
    const h = harness({ journalMaxBodyBytes: 50 });
    const sessionId = await h.createSession();
    const words = Array.from({ length: 100 }, (_, i) => `w${i}`).join(' ');
    await h.call('POST', `/v1/messages/${sessionId}/stream`, { content: `/say ${words}` });
    const response = h.server.journal.last()?.response;
    expect(response).toMatchObject({
      status: 200,
      stopReason: 'end_turn',
      textTruncated: true,
      complete: true,
    });
    expect(response?.text?.length).toBeGreaterThanOrEqual(50);
    expect(response?.text?.length).toBeLessThan(60);
    expect(words.startsWith(response?.text ?? '-')).toBe(true);
  });

  it('journalLimit 0 records nothing', async () => {
    const h = harness({ journalLimit: 0 });
    await h.createSession();
    expect(h.server.journal.size).toBe(0);
    expect(h.server.journal.last()).toBeUndefined();
  });

  it('refuses limits that are not integers >= 0', () => {
    expect(() => new Journal({ maxBytes: -1 })).toThrow(TypeError);
    expect(() => new Journal({ entries: 1.5 })).toThrow(TypeError);
  });

  it('keeps a response as it was sent: a later rewind does not change it', async () => {
    const h = harness();
    const sessionId = await h.createSession();
    await h.call('POST', `/v1/messages/${sessionId}`, { content: 'first' });
    await h.call('POST', `/v1/messages/${sessionId}/rewind`, { index: 0 });
    const [send] = h.server.journal.entries({ method: 'POST', path: '/v1/messages/*' });
    const body = send?.response?.body as { messages: Array<{ deletedAt: number | null }> } | undefined;
    expect(body?.messages.map((m) => m.deletedAt)).toEqual([null, null]);
    const exported = await h.call('GET', `/v1/messages/${sessionId}?includeDeleted=true`);
    expect(exported.body.messages.every((m: { deletedAt: number | null }) => m.deletedAt !== null)).toBe(
      true,
    );
  });
});
