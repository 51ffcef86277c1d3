import { log } from "../log.ts";
import { CHANNEL_FLAGS } from "../plans/features.ts";
import {
  type Delivery,
  type Fanout,
  type MemberChange,
  type VisibilityRule,
  visibleTo,
} from "./delivery.ts";
import { type Audience, type Channel, eventName, roomKey } from "./events.ts";

/** What the hub needs of a socket: send text, close. Real WebSockets and test doubles both fit. */
export interface SocketLike {
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export type SocketIdentity = {
  companyId: number;
  userId: number;
  profile: string;
  /** The user's queues when the socket opened: ticket events are filtered by them. */
  queueIds: number[];
  /** users.allTicket 'enable': unassigned pending tickets of every queue reach their bell. */
  allTicket?: boolean;
  /**
   * The plan flags of the company when the socket opened, refreshed in place when its plan
   * changes (members.ts setCompanyFlags). A channel gated by a flag (CHANNEL_FLAGS) never reaches a
   * member without it. Absent only for in-process probes (tests, benches), which hear everything.
   */
  flags?: ReadonlySet<string>;
  /** A platform super user (announcements they manage reach them even when inactive). */
  isSuper?: boolean;
  /** sessions.id of the token the socket signed in with: ending that session closes it. */
  sessionId?: number;
};

export type Member = SocketIdentity & { socket: SocketLike; rooms: Set<string>; lastSeen: number };

/** A gated channel reaches only members whose company's plan has its flag. */
function hears(member: Member, flag: string | undefined): boolean {
  return flag === undefined || member.flags === undefined || member.flags.has(flag);
}

/**
 * Rooms of sockets, one set per company. Publishing serialises the payload once and writes it
 * to each member of the union of the audiences' rooms (a socket in two rooms gets it once).
 * This is the transport: the app publishes through the typed functions of publish.ts (a channel
 * and its payload, contract/events.ts), from domain events (listeners.ts).
 */
export class Hub {
  readonly #rooms = new Map<string, Set<Member>>();
  readonly #members = new Set<Member>();
  #onPresence?: (companyId: number, userId: number, online: boolean) => void;
  /** With several processes (REDIS_URL): where member changes go to reach every process. */
  #upstream?: Fanout;

  /** Called when a user's first socket joins or last socket leaves. */
  onPresence(listener: (companyId: number, userId: number, online: boolean) => void) {
    this.#onPresence = listener;
  }

  add(identity: SocketIdentity, socket: SocketLike, now = Date.now()): Member {
    const member: Member = { ...identity, socket, rooms: new Set(), lastSeen: now };
    const wasOnline = this.isOnline(identity.companyId, identity.userId);
    this.#members.add(member);
    this.join(member, { kind: "company" });
    this.join(member, { kind: "user", userId: identity.userId });
    if (identity.profile === "admin") this.join(member, { kind: "admins" });
    if (!wasOnline) this.#onPresence?.(identity.companyId, identity.userId, true);
    return member;
  }

  remove(member: Member) {
    if (!this.#members.delete(member)) return;
    for (const key of member.rooms) {
      const room = this.#rooms.get(key);
      room?.delete(member);
      if (room && room.size === 0) this.#rooms.delete(key);
    }
    member.rooms.clear();
    if (!this.isOnline(member.companyId, member.userId)) {
      this.#onPresence?.(member.companyId, member.userId, false);
    }
  }

  /** The room is always built from the member's own company: there is no way to name another. */
  join(member: Member, audience: Audience) {
    const key = roomKey(member.companyId, audience);
    let room = this.#rooms.get(key);
    if (!room) this.#rooms.set(key, room = new Set());
    room.add(member);
    member.rooms.add(key);
  }

  leave(member: Member, audience: Audience) {
    const key = roomKey(member.companyId, audience);
    this.#rooms.get(key)?.delete(member);
    member.rooms.delete(key);
  }

  /** The users this process holds a socket of (the presence job refreshes their rows). */
  onlineUsers(): { companyId: number; userId: number }[] {
    const seen = new Map<string, { companyId: number; userId: number }>();
    for (const m of this.#members) {
      seen.set(`${m.companyId}:${m.userId}`, { companyId: m.companyId, userId: m.userId });
    }
    return [...seen.values()];
  }

  isOnline(companyId: number, userId: number): boolean {
    return (this.#rooms.get(roomKey(companyId, { kind: "user", userId }))?.size ?? 0) > 0;
  }

  /** Sends `data` on the company's channel to everyone in any of the audiences. Returns how many got it. */
  publish(
    companyId: number,
    channel: Channel,
    data: unknown,
    audiences: Audience[] = [{ kind: "company" }],
  ): number {
    return this.#toRooms(companyId, channel, data, audiences, undefined);
  }

  /**
   * An event of publish.ts (plain data, delivery.ts) to this process's sockets: straight from
   * publish.ts with one process, or as it comes back from Redis with several.
   */
  deliver(delivery: Delivery): number {
    if (delivery.to === "members") return this.#apply(delivery.change);
    if (delivery.to === "everyCompany") {
      return this.publishEveryCompany(delivery.channel, delivery.data, delivery.superData);
    }
    const { companyId, channel, data, audiences, visibility } = delivery;
    return this.#toRooms(companyId, channel, data, audiences, visibility);
  }

  /** To the members of any of the audiences' rooms that the rule lets hear it. */
  #toRooms(
    companyId: number,
    channel: Channel,
    data: unknown,
    audiences: Audience[],
    visibility: VisibilityRule | undefined,
  ): number {
    const targets = new Set<Member>();
    const flag = CHANNEL_FLAGS[channel];
    for (const audience of audiences) {
      const room = this.#rooms.get(roomKey(companyId, audience));
      if (!room) continue;
      for (const m of room) if (hears(m, flag) && visibleTo(m, visibility)) targets.add(m);
    }
    if (targets.size === 0) return 0;
    const text = JSON.stringify({ event: eventName(companyId, channel), data });
    for (const member of targets) this.#send(member, text);
    return targets.size;
  }

  /**
   * Sends `data` on `channel` to every connected member of every company, each under its own
   * company's event name (platform-wide notices: announcements); super users get `superData`
   * when given. Returns how many got it.
   */
  publishEveryCompany(channel: Channel, data: unknown, superData: unknown = data): number {
    const texts = new Map<string, string>();
    let sent = 0;
    for (const member of [...this.#members]) {
      const key = `${member.companyId}:${member.isSuper === true}`;
      let text = texts.get(key);
      if (text === undefined) {
        const payload = member.isSuper === true ? superData : data;
        text = JSON.stringify({ event: eventName(member.companyId, channel), data: payload });
        texts.set(key, text);
      }
      this.#send(member, text);
      sent++;
    }
    return sent;
  }

  /** Member changes of this process go through `fanout` to every process (redis_fanout.ts). */
  setUpstream(fanout: Fanout) {
    this.#upstream = fanout;
  }

  /** A change to open sockets (members.ts), applied on every process. */
  change(change: MemberChange) {
    if (this.#upstream) this.#upstream.deliver({ to: "members", change });
    else this.#apply(change);
  }

  /** Applies a member change to this process's sockets; answers how many it touched. */
  #apply(change: MemberChange): number {
    const mine = (m: Member) => m.companyId === change.companyId;
    switch (change.op) {
      case "user": {
        const { userId, patch } = change;
        const members = [...this.#members].filter((m) => mine(m) && m.userId === userId);
        for (const member of members) {
          // Ticket and message events are filtered per member at publish time (delivery.ts),
          // so the new queues and allTicket apply to the very next event, in every room.
          if (patch.queueIds) member.queueIds = [...patch.queueIds];
          if (patch.allTicket !== undefined) member.allTicket = patch.allTicket;
          if (patch.profile && patch.profile !== member.profile) {
            member.profile = patch.profile;
            if (patch.profile === "admin") this.join(member, { kind: "admins" });
            else this.leave(member, { kind: "admins" });
          }
        }
        return members.length;
      }
      case "flags": {
        const members = [...this.#members].filter(mine);
        for (const member of members) member.flags = new Set(change.flags);
        return members.length;
      }
      case "closeUser":
        return this.#close((m) => mine(m) && m.userId === change.userId, change.reason);
      case "closeSession":
        return this.#close((m) => mine(m) && m.sessionId === change.sessionId, change.reason);
      case "closeCompany":
        return this.#close(mine, change.reason);
    }
  }

  /** Closes the sockets that `which` picks (they are removed from every room at once). */
  #close(which: (member: Member) => boolean, reason: string): number {
    let closed = 0;
    for (const member of [...this.#members]) {
      if (!which(member)) continue;
      try {
        member.socket.close(4001, reason);
      } catch {
        // already closed
      }
      this.remove(member);
      closed++;
    }
    return closed;
  }

  sendTo(member: Member, event: string, data?: unknown) {
    this.#send(member, JSON.stringify({ event, data }));
  }

  members(): Iterable<Member> {
    return this.#members;
  }

  get size(): number {
    return this.#members.size;
  }

  closeAll(code = 1001, reason = "server shutting down") {
    for (const member of [...this.#members]) {
      try {
        member.socket.close(code, reason);
      } catch {
        // already closed
      }
      this.remove(member);
    }
  }

  #send(member: Member, text: string) {
    try {
      member.socket.send(text);
    } catch (error) {
      log.debug("socket send failed; dropping member", { error });
      this.remove(member);
    }
  }
}
