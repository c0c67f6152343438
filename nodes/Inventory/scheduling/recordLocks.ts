import { recordKey, type InventoryRecord } from '../model/record';

/** A place in a record's queue; the first in the queue holds the record. */
export interface RecordTicket {
	readonly held: boolean;
	/** Held while another ticket waits for the record (another execution's item, in the process). */
	readonly othersWaitForRecord: boolean;
	/** Gives the record up (held) or leaves its queue (waiting); does nothing the second time. */
	release(): void;
}

interface QueuedTicket extends RecordTicket {
	held: boolean;
	onHeld: () => void;
}

/**
 * Who holds each record now, and who waits for it, first come first served. Shared by every run to one
 * server in the process (see ServerController), so changes of one record from different executions go
 * one after another, in the order they asked for the record.
 */
export class RecordLocks {
	private readonly queues = new Map<string, QueuedTicket[]>();
	/** Tickets waiting for a record someone else holds. */
	private waiting = 0;

	/** No record is held or waited for. */
	get idle(): boolean {
		return this.queues.size === 0;
	}

	/** Some ticket waits for a record held by another (some held ticket has `othersWaitForRecord`). */
	get someoneWaits(): boolean {
		return this.waiting > 0;
	}

	/**
	 * Asks for a record: held at once when nobody holds it, else `onHeld` is called (never from inside
	 * this call or a `release`) when the tickets before it are released.
	 */
	take(record: InventoryRecord, onHeld: () => void): RecordTicket {
		const key = recordKey(record);
		const queue = this.queues.get(key) ?? [];
		if (queue.length === 0) this.queues.set(key, queue);
		let released = false;
		const ticket: QueuedTicket = {
			held: queue.length === 0,
			get othersWaitForRecord() {
				return this.held && queue.length > 1;
			},
			onHeld,
			release: () => {
				if (released) return;
				released = true;
				const position = queue.indexOf(ticket);
				if (position >= 0) queue.splice(position, 1);
				if (!ticket.held) this.waiting--;
				if (queue.length === 0) {
					this.queues.delete(key);
				} else if (position === 0) {
					const next = queue[0];
					next.held = true;
					this.waiting--;
					void Promise.resolve().then(() => next.onHeld());
				}
			},
		};
		if (!ticket.held) this.waiting++;
		queue.push(ticket);
		return ticket;
	}
}
