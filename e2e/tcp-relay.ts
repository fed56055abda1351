import net from "node:net";

export interface TcpRelay {
  /** The relay's own address, to put in place of the target's. */
  port: number;
  /** Ends every connection, and closes new ones as soon as they open, as a database restarting does. */
  cut(): void;
  /** Takes connections again. */
  restore(): void;
  close(): Promise<void>;
}

/**
 * A TCP relay to `host:port` on 127.0.0.1: what a spec puts between a server and its database to
 * take the database away from that server alone, while the same database keeps serving the rest.
 */
export async function startTcpRelay(host: string, port: number): Promise<TcpRelay> {
  const sockets = new Set<net.Socket>();
  let open = true;
  const keep = (s: net.Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
    s.on("error", () => s.destroy());
  };
  const server = net.createServer((client) => {
    keep(client);
    if (!open) return void client.destroy();
    const upstream = net.connect(port, host);
    keep(upstream);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    cut() {
      open = false;
      for (const s of sockets) s.destroy();
    },
    restore() {
      open = true;
    },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
