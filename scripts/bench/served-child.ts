// The bench scripts measure a server in a process of its own: the script starts itself again with
// `--serve …`, and the child prints one JSON line (its URLs) once it listens.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export async function startServedChild<T>(scriptUrl: string, args: readonly string[], nodeFlags: readonly string[] = []): Promise<{ proc: ChildProcess; served: T }> {
  const proc = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', fileURLToPath(scriptUrl), '--serve', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const served = await new Promise<T>((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (chunk) => {
      out += chunk;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line) as T);
    });
    proc.on('exit', (code) => reject(new Error(`bench server ${[...args].join(' ') || fileURLToPath(scriptUrl)} exited with ${code}`)));
  });
  return { proc, served };
}
