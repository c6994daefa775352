/** Whether a process exists, for markers and locks left by another aish. */
import { errnoCode } from './errors';

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return errnoCode(err) === 'EPERM'; // exists, owned by someone else
  }
}
