#!/usr/bin/env node
// Runs the TypeScript CLI through tsx so the package works straight from a clone or an install.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
