// Where the state store lives by default: one SQLite file per user, as XDG puts state
// ($XDG_STATE_HOME/play/state.db, else ~/.local/state/play/state.db). PLAY_STATE or --state moves it.
import { homedir } from 'node:os';
import { join } from 'node:path';

export function defaultStatePath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.PLAY_STATE) return env.PLAY_STATE;
  const base = env.XDG_STATE_HOME || join(homedir(), '.local', 'state');
  return join(base, 'play', 'state.db');
}
