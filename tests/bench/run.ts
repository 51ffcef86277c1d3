/**
 * `deno task bench`: every benchmark in turn, figures printed. Each bench module exports a
 * function that runs it and prints its table.
 */
import { benchTickets } from "./tickets_bench.ts";

await benchTickets();
