/**
 * One line of memory_bench.ts's table of the heaviest imports: in a fresh process (run with
 * --v8-flags=--expose-gc), resident memory and V8 heap before and after `import(specifier)`,
 * printed as JSON. The specifier resolves through deno.json like the app's own imports.
 */
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const specifier = Deno.args[0];
gc();
const before = Deno.memoryUsage();
const t0 = performance.now();
await import(specifier);
const ms = performance.now() - t0;
gc();
const after = Deno.memoryUsage();
Deno.stdout.writeSync(
  new TextEncoder().encode(
    JSON.stringify({
      specifier,
      ms,
      rss: after.rss - before.rss,
      heapUsed: after.heapUsed - before.heapUsed,
    }) + "\n",
  ),
);
