import type { ProviderEvent } from "../../server/whatsapp/providers/provider.ts";
import { SimulatorNetwork } from "../../server/whatsapp/providers/simulator/network.ts";
import type { SimulatorProvider } from "../../server/whatsapp/providers/simulator/provider.ts";
import { createCompany, createTestApp } from "../helpers/app.ts";
import { type ProviderHarness, runProviderContract } from "./provider_contract.ts";

/** The simulator built directly on a test database, outside the session manager. */
async function simulatorHarness(): Promise<ProviderHarness> {
  const t = await createTestApp();
  const company = await createCompany(t, "Contract");
  const now = t.clock.now().toISOString();
  const row = await t.deps.db.insertInto("whatsapps").values({
    companyId: company.id,
    name: "Contract",
    provider: "simulator",
    createdAt: now,
    updatedAt: now,
  }).returning("id").executeTakeFirstOrThrow();
  const network = new SimulatorNetwork();
  network.ackDelayMs = 5;
  const events: ProviderEvent[] = [];
  const build = () =>
    network.createProvider({
      whatsappId: row.id,
      companyId: company.id,
      emit: (event) => events.push(event),
      deliver: (event) => {
        events.push(event);
        return Promise.resolve({});
      },
      getStoredMessage: () => Promise.resolve(undefined),
    }, t.deps);
  let provider: SimulatorProvider = build();
  const h: ProviderHarness = {
    get provider() {
      return provider;
    },
    events,
    start: () => provider.start(),
    scan: async () => {
      await provider.scan();
    },
    inbound: async (m) => {
      await provider.receive({
        chatJid: `${m.from}@s.whatsapp.net`,
        phoneJid: `${m.from}@s.whatsapp.net`,
        pushName: m.pushName,
        body: m.body,
        id: m.id,
      });
    },
    ack: async (id, to, ack) => {
      if (ack === 3) await provider.read(`${to}@s.whatsapp.net`, [id]);
    },
    restart: async () => {
      await provider.stop();
      provider = build();
    },
    close: async () => {
      await provider.stop();
      await t.close();
    },
  };
  return h;
}

runProviderContract("simulator", simulatorHarness);
