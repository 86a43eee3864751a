// Runs a CommonJS test bundle (test/support/bundle.ts, `codeCache`) with V8's code cache kept beside it:
// `node code-cache-loader.cjs BUNDLE ARGS…`. Node 20 has no compile cache of its own, and a child started many
// times (the crash tests start ~40 `mock --state` children) would otherwise parse the 2.4 MB bundle and compile
// the functions it runs anew each time. A cache V8 rejects (another Node, other flags) is ignored: the bundle is
// then compiled as without one. With TEST_BUNDLE_WRITE_CODE_CACHE set, SIGUSR2 writes the cache of what the
// process compiled so far (so a child that served some traffic first leaves its request paths in it).
'use strict';
const { readFileSync, renameSync, writeFileSync } = require('node:fs');
const { Script } = require('node:vm');

const bundle = process.argv[2];
const cacheFile = `${bundle}.v8cache`;
process.argv.splice(2, 1); // the bundle sees the arguments after its own path, as when run directly
let cachedData;
try {
  cachedData = readFileSync(cacheFile);
} catch {
  // no cache yet: compile from source
}
// The CommonJS wrapper Node itself puts around a module, compiled as a script so that V8 can use and make a cache.
const script = new Script(`(function (exports, require, module, __filename, __dirname) {${readFileSync(bundle, 'utf8')}\n})`, { filename: bundle, cachedData });
const module_ = { exports: {} };
script.runInThisContext().call(module_.exports, module_.exports, require, module_, bundle, require('node:path').dirname(bundle));

if (process.env.TEST_BUNDLE_WRITE_CODE_CACHE) {
  process.on('SIGUSR2', () => {
    const temporary = `${cacheFile}.${process.pid}`;
    writeFileSync(temporary, script.createCachedData());
    renameSync(temporary, cacheFile); // whole or not at all for a child starting meanwhile
    process.stderr.write('code cache written\n');
  });
}
