/**
 * A TCP proxy that puts a network's round trip between a client and a server on loopback, where
 * kernel netem is not available. It models:
 *
 * - the TCP handshake: the upstream connection counts as established one round trip after the
 *   client connected; what the client sends before that waits for it;
 * - the one-way delay: every chunk, in each direction, is forwarded half a round trip after it
 *   arrived (or after the handshake, whichever is later), in order.
 *
 * So a plain HTTP request on a new connection costs 2 round trips (TCP, request) and a TLS 1.3 one 3
 * (TCP, TLS, request): TLS passes through untouched, the proxy only sees bytes. With `rttMs` 0 every
 * chunk is forwarded at once (no timers), so the proxy is still there but adds no delay.
 *
 * Run it in its own process so that forwarding does not share the measured event loop:
 *   node build/bench/latency-proxy.js --target 127.0.0.1:8080 --rtt 20   (prints "port <N>")
 */
import { connect, createServer, type Socket } from 'node:net';

export interface LatencyProxyOptions {
	target: { host: string; port: number };
	rttMs: number;
	/** Interface to listen on (default 127.0.0.1); the port is a free one. */
	host?: string;
}

export interface LatencyProxy {
	port: number;
	close(): Promise<void>;
}

/** Above this many bytes waiting in one direction, the sending side is paused. */
const QUEUE_HIGH_WATER = 1024 * 1024;

/**
 * One direction of one connection: chunks wait until their due time and leave in arrival order. One
 * timer per direction (for the head of the queue), not one per chunk.
 */
class DelayedPipe {
	private readonly queue: { dueAt: number; chunk: Buffer | null }[] = [];
	private queuedBytes = 0;
	private timer: NodeJS.Timeout | undefined;
	private waitingForDrain = false;
	private destination: Socket | undefined;

	constructor(
		private readonly source: Socket,
		private readonly delayMs: number,
		/** Nothing leaves before this time (the end of the modelled TCP handshake). */
		private readonly notBefore: number,
	) {
		source.on('data', (chunk: Buffer) => this.push(chunk));
		source.on('end', () => this.push(null));
	}

	/** Where the chunks go; until it is set they wait. */
	connectTo(destination: Socket): void {
		this.destination = destination;
		destination.on('drain', () => {
			this.waitingForDrain = false;
			this.flush();
		});
		this.flush();
	}

	stop(): void {
		clearTimeout(this.timer);
		this.queue.length = 0;
	}

	private push(chunk: Buffer | null): void {
		this.queue.push({ dueAt: Math.max(performance.now(), this.notBefore) + this.delayMs, chunk });
		if (chunk) {
			this.queuedBytes += chunk.length;
			if (this.queuedBytes > QUEUE_HIGH_WATER) this.source.pause();
		}
		this.flush();
	}

	private flush(): void {
		const destination = this.destination;
		if (!destination || this.waitingForDrain || destination.destroyed) return;
		clearTimeout(this.timer);
		this.timer = undefined;
		const now = performance.now();
		while (this.queue.length > 0 && this.queue[0].dueAt <= now) {
			const { chunk } = this.queue.shift()!;
			if (chunk === null) {
				destination.end();
				return;
			}
			this.queuedBytes -= chunk.length;
			if (this.queuedBytes <= QUEUE_HIGH_WATER && this.source.isPaused()) this.source.resume();
			if (!destination.write(chunk)) {
				this.waitingForDrain = true;
				return;
			}
		}
		if (this.queue.length > 0) {
			this.timer = setTimeout(() => this.flush(), this.queue[0].dueAt - now);
		}
	}
}

export async function startLatencyProxy(options: LatencyProxyOptions): Promise<LatencyProxy> {
	const { target, rttMs } = options;
	const oneWayMs = rttMs / 2;
	const sockets = new Set<Socket>();
	const server = createServer({ allowHalfOpen: true, noDelay: true }, (client) => {
		sockets.add(client);
		const handshakeDoneAt = performance.now() + rttMs;
		const upstreamPipe = new DelayedPipe(client, oneWayMs, handshakeDoneAt);
		let upstream: Socket | undefined;
		let downstreamPipe: DelayedPipe | undefined;
		const closeBoth = () => {
			upstreamPipe.stop();
			downstreamPipe?.stop();
			client.destroy();
			upstream?.destroy();
		};
		client.on('error', closeBoth);
		client.on('close', (hadError) => {
			sockets.delete(client);
			if (hadError || !upstream) closeBoth();
		});
		const open = () => {
			if (client.destroyed) return;
			const socket = connect({ ...target, allowHalfOpen: true, noDelay: true });
			upstream = socket;
			sockets.add(socket);
			downstreamPipe = new DelayedPipe(socket, oneWayMs, 0);
			socket.on('error', closeBoth);
			socket.on('close', (hadError) => {
				sockets.delete(socket);
				if (hadError) closeBoth();
			});
			socket.once('connect', () => {
				upstreamPipe.connectTo(socket);
				downstreamPipe?.connectTo(client);
			});
		};
		if (rttMs > 0) setTimeout(open, rttMs);
		else open();
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, options.host ?? '127.0.0.1', () => resolve());
	});
	const address = server.address();
	if (address === null || typeof address === 'string') throw new Error('proxy has no port');
	return {
		port: address.port,
		close: async () => {
			for (const socket of sockets) socket.destroy();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

async function main(): Promise<void> {
	const argument = (name: string) => {
		const index = process.argv.indexOf(`--${name}`);
		const value = index > 0 ? process.argv[index + 1] : undefined;
		if (value === undefined) throw new Error(`--${name} is required`);
		return value;
	};
	const [host, port] = argument('target').split(':');
	const proxy = await startLatencyProxy({
		target: { host, port: Number(port) },
		rttMs: Number(argument('rtt')),
	});
	process.stdout.write(`port ${proxy.port}\n`);
	const stop = () => void proxy.close().then(() => process.exit(0));
	process.on('SIGTERM', stop);
	process.on('SIGINT', stop);
}

if (require.main === module) {
	main().catch((error: unknown) => {
		process.stderr.write(`latency-proxy: ${(error as Error).message}\n`);
		process.exit(1);
	});
}
