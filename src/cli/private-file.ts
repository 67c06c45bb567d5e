/** Files the CLI writes for the user alone (docs/testing-with-svc.md#secrets): exports and `svc exec`'s artefacts. */
import { mkdir, open } from 'node:fs/promises';
import { CliError } from './output.js';

/** Writes `text` to `file`, readable by its owner only (0600), a file that was there before included; a failure is a CliError. */
export async function writePrivateFile(file: string, text: string): Promise<void> {
  try {
    const handle = await open(file, 'w', 0o600);
    try {
      // The mode of open() applies only to a file it creates; a device (--out /dev/stdout) keeps its own.
      if ((await handle.stat()).isFile()) await handle.chmod(0o600);
      await handle.writeFile(text);
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw new CliError(`cannot write ${file}: ${(error as Error).message}`);
  }
}

/** Makes `dir` (0700) when it is not there; an existing dir keeps its mode. */
export async function makePrivateDir(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new CliError(`cannot make the dir ${dir}: ${(error as Error).message}`);
  }
}
