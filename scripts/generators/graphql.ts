// graphql-codegen (client preset) run in memory so the driver can add banners and track files.
import { generate } from '@graphql-codegen/cli';
import { relative } from 'node:path';
import config from '../../codegen.js';
import { generatedDir } from './output.js';

export async function graphqlFiles(): Promise<{ path: string; content: string }[]> {
  const files = (await generate({ ...config, silent: true }, false)) as { filename: string; content: string }[];
  return files.map((f) => ({ path: relative(generatedDir, f.filename.startsWith('/') ? f.filename : `${process.cwd()}/${f.filename}`), content: f.content }));
}
