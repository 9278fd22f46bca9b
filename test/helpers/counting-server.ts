import net from 'node:net';

/** A TCP server on 127.0.0.1 that counts the connections it gets and how many are open at once. */
export interface CountingServer {
  port: number;
  seen: { accepted: number; maxOpen: number };
  open: Set<net.Socket>;
  /** Resolves once every connection it got has closed. */
  allClosed(): Promise<void>;
  close(): Promise<void>;
}

/** Starts a CountingServer; `onSocket` serves each connection (it must read it, for its end to be seen). */
export async function countingServer(onSocket: (socket: net.Socket) => void): Promise<CountingServer> {
  const open = new Set<net.Socket>();
  const seen = { accepted: 0, maxOpen: 0 };
  const closed: Promise<void>[] = [];
  const server = net.createServer((socket) => {
    seen.accepted++;
    open.add(socket);
    seen.maxOpen = Math.max(seen.maxOpen, open.size);
    closed.push(new Promise((resolve) => socket.once('close', () => resolve())));
    socket.on('close', () => open.delete(socket));
    socket.on('error', () => undefined);
    onSocket(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    seen,
    open,
    allClosed: async () => void (await Promise.all(closed)),
    close: () => {
      for (const socket of open) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Serves a PostgreSQL client as far as asking it for an authentication it cannot do (SASL with
 * an unknown mechanism): its connect fails on its side, while the socket stays open here.
 */
export function unknownAuthentication(socket: net.Socket): void {
  socket.once('data', () => {
    const mechanisms = Buffer.from('UNKNOWN-MECHANISM\0\0');
    const message = Buffer.alloc(9);
    message.write('R', 0);
    message.writeInt32BE(8 + mechanisms.length, 1);
    // AuthenticationSASL.
    message.writeInt32BE(10, 5);
    socket.write(Buffer.concat([message, mechanisms]));
    socket.resume();
  });
}

/** A proxy to the database at `url` that counts the connections made through it; its URL goes through it. */
export async function countingProxy(url: string): Promise<CountingServer & { url: string }> {
  const target = new URL(url);
  const proxy = await countingServer((down) => {
    const up = net.connect(Number(target.port || 5432), target.hostname);
    up.on('error', () => down.destroy());
    down.on('error', () => up.destroy());
    down.pipe(up);
    up.pipe(down);
    down.on('close', () => up.destroy());
  });
  const through = new URL(url);
  through.hostname = '127.0.0.1';
  through.port = String(proxy.port);
  return { ...proxy, url: through.toString() };
}
