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
 * (they would otherwise miss it too). When its subscription is back, its sockets are told to read
 * their lists again (`sync` reload: what others published meanwhile was lost), and every
 * process's sockets too when its own events could not cross.
 */
export class RedisFanout implements Fanout {
  /** An event of this process could not cross while Redis was away: the others missed it. */
  #missed = false;

  private constructor(private readonly hub: Hub, private readonly link: RedisLink) {}

  static async open(hub: Hub, link: RedisLink): Promise<RedisFanout> {
    const fanout = new RedisFanout(hub, link);
    // Member changes (a user's queues, sockets to close) reach every process's sockets too.
    hub.setUpstream(fanout);
    link.onRecovered(() => fanout.#recovered());
    await link.subscribe(EVENTS_CHANNEL, (message) => fanout.#arrived(message)).catch((error) =>
      log.warn("redis subscription pending until redis is reached", { error: String(error) })
    );
    return fanout;
  }

  deliver(delivery: Delivery): number {
    const text = JSON.stringify(delivery);
    this.link.publish(EVENTS_CHANNEL, text).catch((error) => {
      if (!this.#missed) {
        log.warn("events not fanned out: redis unreachable", { error: String(error) });
      }
      this.#missed = true;
      this.hub.deliver(delivery);
    });
    return 0;
  }

  /**
   * This process's subscription is back: its sockets read their lists again; if its own events
   * could not cross meanwhile, every process's sockets do (through Redis, itself included).
   */
  #recovered() {
    if (!this.#missed) {
      publishReload(this.hub);
      return;
    }
    this.#missed = false;
    publishReload(this);
  }

  #arrived(message: string) {
    try {
      this.hub.deliver(JSON.parse(message) as Delivery);
    } catch (error) {
      log.error("event from redis not delivered", { error });
    }
  }
}
