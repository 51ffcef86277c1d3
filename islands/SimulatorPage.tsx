import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { AppShell } from "./lib/shell/AppShell.tsx";
import { api } from "./lib/api.ts";
import { can } from "./lib/permissions.ts";
import { useUser } from "./lib/session.ts";
import { useRealtime } from "./lib/socket.ts";
import { toast } from "./lib/toast.ts";
import { Button, IconButton } from "./lib/ui/Button.tsx";
import { Field } from "./lib/ui/Field.tsx";
import { Select } from "./lib/ui/Select.tsx";
import { StatusBadge } from "./connections/StatusBadge.tsx";
import { applySession, applyUpdate, type Connection, normalStatus } from "./connections/model.ts";
import {
  forgetContact,
  formatPhone,
  initials,
  phoneDigits,
  randomPhone,
  rememberContact,
  type SavedContact,
  savedContacts,
  validPhone,
} from "./simulator/model.ts";
import { icon } from "./lib/ui/icon.tsx";
import { lazyPart } from "./lib/ui/deferred.tsx";
import { kindsWith } from "../contract/channels.ts";

const Dices = icon("dices");
const Play = icon("play");
const Plus = icon("plus");
const ScanLine = icon("scan-line");
const Smartphone = icon("smartphone");
const X = icon("x");

export type SimulatorPageProps = Record<string, never>;

/**
 * The phone's chat shows once the connections are read and one is chosen (after the first
 * paint): its code (bubbles, composer, menus) is fetched beside that request, not with the page
 * (issue 33).
 */
const Chat = lazyPart(() => import("./simulator/Chat.tsx").then((m) => m.Chat));

/**
 * /simulator (issue 3; DESIGN 'WhatsApp'): the built-in phone network's other end. Pick a
 * simulator connection of the company, be any phone number, and chat with the company as that
 * contact: text, files, location and contact cards; see what the company answers with its acks;
 * read, edit, delete and call like a real phone would.
 */
export default function SimulatorPage(_props: SimulatorPageProps) {
  const { t } = useTranslation();
  return (
    <AppShell title={t("simulator.title")}>
      <Simulator />
    </AppShell>
  );
}

const LAST_CONNECTION_KEY = "balcao.simulator.whatsappId";

function Simulator() {
  const { t } = useTranslation();
  const user = useUser();
  const [connections, setConnections] = useState<Connection[] | null>(null);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [contacts, setContacts] = useState<SavedContact[]>([]);
  const [number, setNumber] = useState("");
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const chosen = useRef(false);

  const load = useCallback(() => {
    api.get<Connection[]>("/whatsapp", { query: { session: 0 } }).then((all) => {
      const sims = (Array.isArray(all) ? all : []).filter((c) => c.capabilities?.simulated);
      setConnections(sims);
      if (chosen.current) return;
      chosen.current = true;
      const wanted = Number(new URLSearchParams(location.search).get("whatsappId")) ||
        Number(localStorage.getItem(LAST_CONNECTION_KEY));
      const pick = sims.find((c) => c.id === wanted) ??
        sims.find((c) => normalStatus(c.status) === "CONNECTED") ?? sims[0];
      setSelectedId(pick?.id ?? null);
    }).catch(() => setConnections((old) => old ?? []));
  }, []);

  useEffect(() => {
    Chat.preload(); // beside the connections' request: the chat's code is there when they are
    load();
    const saved = savedContacts();
    setContacts(saved);
    if (saved[0]) {
      setNumber(saved[0].number);
      setName(saved[0].name);
    } else {
      setNumber(randomPhone());
      setName(t("simulator.defaultContactName"));
    }
  }, []);

  useEffect(() => {
    if (selectedId !== null) localStorage.setItem(LAST_CONNECTION_KEY, String(selectedId));
  }, [selectedId]);

  useRealtime("ready", () => {
    if (connections !== null) load();
  });
  useRealtime("whatsapp", (data) => {
    if (data.action === "update" && data.whatsapp.capabilities?.simulated) {
      const w = data.whatsapp;
      setConnections((old) => applyUpdate(old ?? [], w));
    } else {
      // Deleted, or it stopped being a simulator connection.
      const id = data.action === "delete" ? data.whatsappId : data.whatsapp.id;
      setConnections((old) => old?.filter((c) => c.id !== id) ?? old);
    }
  });
  useRealtime("whatsappSession", ({ session }) => {
    setConnections((old) => old ? applySession(old, session) : old);
  });

  const connection = connections?.find((c) => c.id === selectedId) ??
    connections?.[0] ?? null;
  const status = connection ? normalStatus(connection.status) : null;
  const admin = can(user, "connections-page:actionButtons");

  const scan = async () => {
    if (!connection) return;
    setBusy(true);
    try {
      await api.post(`/simulator/${connection.id}/scan`);
    } catch {
      // the api client showed the error
    } finally {
      setBusy(false);
    }
  };

  const start = async () => {
    if (!connection) return;
    setBusy(true);
    try {
      const answer = await api.post<{ whatsapp?: Connection }>(
        `/whatsappsession/${connection.id}`,
      );
      if (answer?.whatsapp) {
        const w = answer.whatsapp;
        setConnections((old) => applyUpdate(old ?? [], w));
      }
    } catch {
      // the api client showed the error
    } finally {
      setBusy(false);
    }
  };

  const create = async () => {
    setBusy(true);
    try {
      const taken = new Set((connections ?? []).map((c) => c.name));
      let label = t("simulator.defaultConnectionName");
      for (let i = 2; taken.has(label); i++) label = `${t("simulator.defaultConnectionName")} ${i}`;
      const created = await api.post<Connection>("/whatsapp", {
        name: label,
        provider: kindsWith("simulated")[0],
      });
      setConnections((old) => applyUpdate(old ?? [], created));
      setSelectedId(created.id);
      // Linked at once: the point of the simulator is to chat without a phone.
      if (normalStatus(created.status) === "qrcode") {
        await api.post(`/simulator/${created.id}/scan`);
      }
      toast.success({ key: "simulator.created" });
    } catch {
      // the api client showed the error
    } finally {
      setBusy(false);
    }
  };

  const pickContact = (c: SavedContact) => {
    setNumber(c.number);
    setName(c.name);
  };

  const newContact = () => {
    setNumber(randomPhone());
    setName("");
  };

  const onSent = () => {
    if (validPhone(number)) {
      setContacts(rememberContact({ number: phoneDigits(number), name: name.trim() }));
    }
  };

  const phoneError = number && !validPhone(number) ? t("simulator.contact.invalidNumber") : null;

  return (
    <div className="sim-layout">
      <aside className="sim-side">
        <section className="card sim-card" aria-labelledby="sim-connection-title">
          <h2 id="sim-connection-title" className="sim-card-title">
            {t("simulator.connection.title")}
          </h2>
          {connections === null
            ? <div className="skeleton sim-skeleton" />
            : connections.length === 0
            ? (
              <div className="sim-empty" data-testid="simulator-no-connection">
                <p>{t("simulator.connection.none")}</p>
                {can(user, "connections-page:addConnection")
                  ? (
                    <Button
                      variant="primary"
                      onClick={() => void create()}
                      loading={busy}
                      data-testid="simulator-create"
                    >
                      <Plus size={18} aria-hidden="true" />
                      {t("simulator.connection.create")}
                    </Button>
                  )
                  : <p className="field-hint">{t("simulator.connection.askAdmin")}</p>}
              </div>
            )
            : (
              <>
                {connections.length > 1
                  ? (
                    <Select
                      label={t("simulator.connection.title")}
                      value={connection ? String(connection.id) : undefined}
                      onValueChange={(v) => setSelectedId(Number(v))}
                      options={connections.map((c) => ({ value: String(c.id), label: c.name }))}
                    />
                  )
                  : <div className="sim-conn-name">{connection?.name}</div>}
                {connection
                  ? (
                    <div className="sim-conn-state">
                      <StatusBadge status={connection.status} />
                      {connection.number
                        ? <span className="mono">{formatPhone(connection.number)}</span>
                        : null}
                    </div>
                  )
                  : null}
                {status === "qrcode" || status === "PAIRING"
                  ? (
                    <Button
                      variant="primary"
                      block
                      onClick={() => void scan()}
                      loading={busy}
                      data-testid="simulator-scan"
                    >
                      <ScanLine size={18} aria-hidden="true" />
                      {t("connections.qr.simulateScan")}
                    </Button>
                  )
                  : null}
                {status === "DISCONNECTED" || status === "TIMEOUT"
                  ? admin
                    ? (
                      <Button
                        variant="primary"
                        block
                        onClick={() => void start()}
                        loading={busy}
                        data-testid="simulator-start"
                      >
                        <Play size={18} aria-hidden="true" />
                        {t("simulator.connection.start")}
                      </Button>
                    )
                    : <p className="field-hint">{t("simulator.connection.askAdmin")}</p>
                  : null}
              </>
            )}
        </section>

        <section className="card sim-card" aria-labelledby="sim-contact-title">
          <div className="sim-card-head">
            <h2 id="sim-contact-title" className="sim-card-title">
              {t("simulator.contact.title")}
            </h2>
            <IconButton label={t("simulator.contact.random")} onClick={newContact}>
              <Dices size={18} aria-hidden="true" />
            </IconButton>
          </div>
          <p className="sim-card-help">{t("simulator.contact.help")}</p>
          <Field
            label={t("simulator.contact.number")}
            name="simNumber"
            inputMode="tel"
            placeholder="5513912344321"
            value={number}
            onChange={(e) => setNumber(e.target.value)}
            error={phoneError}
            data-testid="simulator-number"
          />
          <Field
            label={t("simulator.contact.name")}
            name="simName"
            placeholder={t("simulator.defaultContactName")}
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={100}
            data-testid="simulator-name"
          />
          {contacts.length
            ? (
              <div className="sim-recent">
                <div className="sim-recent-title">{t("simulator.contact.recent")}</div>
                <ul>
                  {contacts.map((c) => {
                    const active = phoneDigits(c.number) === phoneDigits(number);
                    return (
                      <li key={c.number} className={active ? "active" : undefined}>
                        <button type="button" onClick={() => pickContact(c)}>
                          <span className="avatar avatar-sm" aria-hidden="true">
                            {initials(c.name, c.number)}
                          </span>
                          <span className="sim-recent-text">
                            <span>{c.name || formatPhone(c.number)}</span>
                            {c.name ? <small>{formatPhone(c.number)}</small> : null}
                          </span>
                        </button>
                        <button
                          type="button"
                          className="sim-forget"
                          aria-label={t("simulator.contact.forget")}
                          title={t("simulator.contact.forget")}
                          onClick={() => setContacts(forgetContact(c.number))}
                        >
                          <X size={14} aria-hidden="true" />
                        </button>
                      </li>
                    );
                  })}
                </ul>
              </div>
            )
            : null}
        </section>
      </aside>

      <section className="sim-main" aria-label={t("simulator.chat.label")}>
        {connection
          ? (
            <Chat
              key={`${connection.id}:${phoneDigits(number)}`}
              connection={connection}
              number={validPhone(number) ? phoneDigits(number) : null}
              name={name.trim()}
              onSent={onSent}
            />
          )
          : (
            <div className="sim-phone sim-phone-empty">
              <Smartphone size={48} aria-hidden="true" />
              <p>{t("simulator.chat.noConnection")}</p>
            </div>
          )}
      </section>
    </div>
  );
}
