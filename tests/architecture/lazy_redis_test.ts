import assert from "node:assert/strict";
import { ROOT } from "./source_files.ts";

/**
 * Without REDIS_URL nothing of Redis loads (issue 31 with issue 33's start-up memory): the Redis
 * client is reachable from main.ts only through a dynamic import (server/deps.ts, when REDIS_URL
 * is set). Walks main.ts's static imports (type-only ones load nothing and are skipped).
 */
function staticImports(text: string): string[] {
  return [
    ...text.matchAll(/(?:^|\n)\s*(?:import|export)(?!\s+type\b)[^"';]*?from\s*["']([^"']+)["']/g),
    ...text.matchAll(/(?:^|\n)\s*import\s*["']([^"']+)["']/g),
  ].map((m) => m[1]);
}

async function staticGraph(entry: string): Promise<Map<string, string[]>> {
  const graph = new Map<string, string[]>();
  const todo = [entry];
  while (todo.length > 0) {
    const file = todo.pop()!;
    if (graph.has(file)) continue;
    const text = await Deno.readTextFile(`${ROOT}${file}`);
    const targets = staticImports(text).map((s) =>
      s.startsWith(".") ? new URL(s, `file:///${file}`).pathname.slice(1) : `npm:${s}`
    );
    graph.set(file, targets);
    for (const target of targets) if (!target.startsWith("npm:")) todo.push(target);
  }
  return graph;
}

Deno.test("architecture - main.ts loads no Redis client without REDIS_URL (only a dynamic import reaches it)", async () => {
  const graph = await staticGraph("main.ts");
  assert.ok(graph.has("server/deps.ts"), "the walk reaches server/deps.ts");
  const loading = [...graph].filter(([, targets]) =>
    targets.some((t) => t.includes("@redis/") || t.startsWith("server/redis/"))
  ).map(([file]) => file);
  assert.deepEqual(loading, [], "files that load Redis at start");
  // And the walk would see it: server/redis/link.ts imports the client statically.
  const link = await staticGraph("server/redis/link.ts");
  assert.ok(link.get("server/redis/link.ts")!.includes("npm:@redis/client"));
});
