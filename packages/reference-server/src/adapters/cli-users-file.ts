import { readFile } from 'node:fs/promises';
import type { User } from '../http/token-auth.js';

const USER = /^([^:\s]+):(\S+)$/;

/**
 * `--users-file` (`PARLEY_USERS_FILE`): users from a file of `NAME:TOKEN` entries separated by
 * lines, spaces or commas, `#` starting a comment (a mounted secret, as a container takes one).
 * An unreadable file, a bad entry or a file with no user throws an Error naming the line, never
 * the entry itself: it holds a token.
 */
export async function readUsersFile(file: string): Promise<User[]> {
  const text = await readFile(file, 'utf8');
  const users: User[] = [];
  for (const [index, line] of text.split(/\r?\n/).entries()) {
    for (const item of line.replace(/#.*/, '').split(/[\s,]+/)) {
      if (item === '') continue;
      const match = USER.exec(item);
      if (match?.[1] === undefined || match[2] === undefined) {
        throw new Error(`line ${index + 1}: an entry is not NAME:TOKEN (both non-empty, no spaces)`);
      }
      users.push({ name: match[1], token: match[2] });
    }
  }
  if (users.length === 0) throw new Error('holds no NAME:TOKEN entry');
  return users;
}
