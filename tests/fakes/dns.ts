import dgram from "node:dgram";

/**
 * A DNS server of the test's own on 127.0.0.1 (UDP, port 0; point the app at it with
 * OUTBOUND_DNS_SERVER=`server`). It answers A queries for the names it was given (TTL 0), AAAA
 * with no record, any other name NXDOMAIN. `rebind` makes it a DNS rebinding attacker's server:
 * the next A query of the name gets `first`, every later one `then`.
 */
export type DnsQuery = { name: string; type: number; answered: string[] };

const A = 1;

function qname(packet: Uint8Array): { name: string; end: number } {
  const labels: string[] = [];
  let at = 12;
  while (packet[at] !== 0) {
    if (at >= packet.length || packet[at] > 63) throw new Error("bad query name");
    labels.push(new TextDecoder().decode(packet.subarray(at + 1, at + 1 + packet[at])));
    at += packet[at] + 1;
  }
  return { name: labels.join(".").toLowerCase(), end: at + 1 };
}

export class FakeDns {
  readonly queries: DnsQuery[] = [];
  // Per name, the answers still to give; the last one repeats.
  readonly #answers = new Map<string, string[][]>();
  readonly #socket: dgram.Socket;

  private constructor(socket: dgram.Socket) {
    this.#socket = socket;
    socket.on("message", (msg, peer) => {
      try {
        const reply = this.#reply(new Uint8Array(msg));
        if (reply) socket.send(reply, peer.port, peer.address);
      } catch {
        // Not a query it understands: no answer, as a server dropping garbage.
      }
    });
  }

  static async start(port = 0): Promise<FakeDns> {
    const socket = dgram.createSocket("udp4");
    await new Promise<void>((resolve) => socket.bind(port, "127.0.0.1", () => resolve()));
    return new FakeDns(socket);
  }

  /** `ip:port`, as OUTBOUND_DNS_SERVER takes it. */
  get server(): string {
    return `127.0.0.1:${this.#socket.address().port}`;
  }

  set(name: string, ...addresses: string[]) {
    this.#answers.set(name.toLowerCase(), [addresses]);
  }

  rebind(name: string, first: string, then: string) {
    this.#answers.set(name.toLowerCase(), [[first], [then]]);
  }

  /** The A queries of a name so far, with what each was answered. */
  asked(name: string): DnsQuery[] {
    return this.queries.filter((q) => q.name === name.toLowerCase() && q.type === A);
  }

  #reply(packet: Uint8Array): Uint8Array | undefined {
    if (packet.length < 17) return undefined;
    const { name, end } = qname(packet);
    const type = (packet[end] << 8) | packet[end + 1];
    const question = packet.subarray(12, end + 4);
    const queue = this.#answers.get(name);
    const answered = queue && type === A ? (queue.length > 1 ? queue.shift()! : queue[0]) : [];
    this.queries.push({ name, type, answered });
    const u16 = (n: number) => [n >> 8, n & 0xff];
    const records = answered.flatMap((address) => [
      ...[...u16(0xc00c), ...u16(A), ...u16(1)], // a pointer to the question's name; A; IN
      ...[...u16(0), ...u16(0)], // TTL 0: never cached
      ...[...u16(4), ...address.split(".").map(Number)],
    ]);
    const rcode = queue ? 0 : 3; // NXDOMAIN for a name it does not know
    const header = [
      ...[packet[0], packet[1], 0x81, 0x80 | rcode], // the query's id; an answer, recursion
      ...[...u16(1), ...u16(answered.length), ...u16(0), ...u16(0)],
    ];
    return new Uint8Array([...header, ...question, ...records]);
  }

  close() {
    this.#socket.close();
  }
}
