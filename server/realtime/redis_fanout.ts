import { log } from "../log.ts";
import type { RedisLink } from "../redis/link.ts";
import type { Delivery, Fanout } from "./delivery.ts";
import type { Hub } from "./hub.ts";
import { publishReload } from "./publish.ts";

/** The Redis channel every process publishes its events on and listens to. */
export const EVENTS_CHANNEL = "balcao:events";

/**
 * The fan-out of several processes (REDIS_URL, docs/scaling.md): each event of publish.ts goes
 * to Redis once, and every process (this one included) hands what comes back to its own hub,
 * which applies the rooms and the visibility rule to its own sockets (Hub.deliver). Redis keeps
 * the order of one publisher's messages, so a socket hears a process's events in order.
 *
 * While Redis is away an event cannot cross: this process still delivers it to its own sockets
 * (they would otherwise miss it too), and when Redis is back every socket of every process is
 * told to read its lists again (`sync` reload), since the others missed it.
 */
export class RedisFanout implements Fanout {
  #published = 0;
  #received = 0;

  private constructor(private readonly hub: Hub, private readonly link: RedisLink) {}

  static async open(hub: Hub, link: RedisLink): Promise<RedisFanout> {
    const fanout = new RedisFanout(hub, link);
    // Member changes (a user's queues, sockets to close) reach every process's sockets too.
    hub.setUpstream(fanout);
    link.onRecovered(() => publishReload(hub));
    await link.subscribe(EVENTS_CHANNEL, (message) => fanout.#arrived(message)).catch((error) =>
      log.warn("redis subscription pending until redis is reached", { error: String(error) })
    );
    return fanout;
  }

  deliver(delivery: Delivery): number {
    const text = JSON.stringify(delivery);
    this.#published++;
    this.link.publish(EVENTS_CHANNEL, text).catch((error) => {
      log.warn("event not fanned out: redis unreachable", { error: String(error) });
      this.hub.deliver(delivery);
    });
    return 0;
  }

  /** Events published and received by this process (the bench and /metrics read them). */
  get counts(): { published: number; received: number } {
    return { published: this.#published, received: this.#received };
  }

  #arrived(message: string) {
    this.#received++;
    try {
      this.hub.deliver(JSON.parse(message) as Delivery);
    } catch (error) {
      log.error("event from redis not delivered", { error });
    }
  }
}
