import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

/**
 * No import cycle in server/ (ARCHITECTURE.md 'What may import what'). Type-only imports count
 * too: a cycle of types is still two modules that cannot be understood, moved or tested one
 * without the other (the outbox once imported the session manager's type only to call one
 * method of it). The failure names each cycle, file by file.
 */
const ROOT = fileURLToPath(new URL("../../", import.meta.url));

async function* sources(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(`${ROOT}${dir}`)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) yield* sources(path);
    else if (/\.tsx?$/.test(entry.name) && !/_test\.tsx?$/.test(entry.name)) yield path;
  }
}

/** file -> the server files it imports (relative specifiers only). */
export async function importGraph(dir: string): Promise<Map<string, string[]>> {
  const graph = new Map<string, string[]>();
  for await (const file of sources(dir)) {
    const text = await Deno.readTextFile(`${ROOT}${file}`);
    const targets: string[] = [];
    for (
      const m of text.matchAll(/(?:^|\n)\s*(?:import|export)[^"';]*?from\s*["'](\.[^"']+)["']/g)
    ) {
      const target = new URL(m[1], `file:///${file}`).pathname.slice(1);
      if (target.startsWith(`${dir}/`)) targets.push(target);
    }
    for (const m of text.matchAll(/import\(\s*["'](\.[^"']+)["']\s*\)/g)) {
      const target = new URL(m[1], `file:///${file}`).pathname.slice(1);
      if (target.startsWith(`${dir}/`)) targets.push(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** Every strongly connected group of more than one file (or a file importing itself). */
export function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    indexOf.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indexOf.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indexOf.get(w)!));
    }
    if (low.get(v) === indexOf.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(group.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!indexOf.has(v)) visit(v);
  return found;
}

Deno.test("server - no import cycle (type-only imports included)", async () => {
  const graph = await importGraph("server");
  assert.ok(graph.size > 50, "the walk found the server's files");
  assert.deepEqual(cycles(graph), []);
});

Deno.test("server - the cycle finder finds a cycle", () => {
  const graph = new Map([["a.ts", ["b.ts"]], ["b.ts", ["c.ts"]], ["c.ts", ["a.ts"]], ["d.ts", []]]);
  assert.deepEqual(cycles(graph), [["a.ts", "b.ts", "c.ts"]]);
});
