import { readFile } from 'node:fs/promises';
import { InvalidArgumentError } from 'commander';
import type { User } from '../http/token-auth.js';

// The user flags: --user NAME:TOKEN (PARLEY_USERS) and --users-file (PARLEY_USERS_FILE).

const USER = /^([^:\s]+):(\S+)$/;

function parseUser(value: string): User {
  const match = USER.exec(value);
  if (match?.[1] === undefined || match[2] === undefined) {
    throw new InvalidArgumentError(
      `"${value}" must be NAME:TOKEN (both non-empty, no spaces; the first ":" ends the name).`,
    );
  }
  return { name: match[1], token: match[2] };
}

/** `--user NAME:TOKEN`, repeatable. */
export function collectUser(value: string, previous: User[]): User[] {
  return [...previous, parseUser(value)];
}

/** `PARLEY_USERS`: `NAME:TOKEN` pairs separated by commas or whitespace (so no comma in a token). */
export function parseUserList(value: string): User[] {
  const users = value
    .split(/[\s,]+/)
    .filter((item) => item !== '')
    .map(parseUser);
  if (users.length === 0) throw new InvalidArgumentError('must hold at least one NAME:TOKEN.');
  return users;
}

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

/** The values of the user flags. */
export interface CliUserOptions {
  user: User[];
  /** `--users-file`: a file of `NAME:TOKEN` entries (a mounted secret), added to `--user`. */
  usersFile?: string;
}

/** The user flags' specs (`CliOptionSpec`s: cli-options.ts lists them after --host). */
export const USER_CLI_OPTIONS = [
  {
    flags: '--user <NAME:TOKEN>',
    description: 'a user and its bearer token (repeatable; the variable takes a comma-separated list)',
    env: 'PARLEY_USERS',
    parse: collectUser,
    parseEnv: parseUserList,
    secret: true,
    default: [] as User[],
    defaultDescription: 'one demo user whose token is printed',
  },
  {
    flags: '--users-file <file>',
    description:
      'more users from a file of NAME:TOKEN entries, one a line (a mounted secret; # starts a comment)',
    env: 'PARLEY_USERS_FILE',
  },
] as const;
