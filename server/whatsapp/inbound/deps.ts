import type { BotRegistry } from "../../bots/registry.ts";
import type { OutboxDeps } from "../outbox/outbox.ts";

/** What the inbound pipeline runs on: the outbox's dependencies and the bots. */
export type InboundDeps = OutboxDeps & { bots: BotRegistry };
