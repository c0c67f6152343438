/** What the demo runs (the example's purchases) and what one run of it did: shared by its run and its report. */
import type { IDataObject, IRun } from 'n8n-workflow';

import type { RecordedRequest } from '../sandbox/src';

export interface Purchase {
	submissionId: string;
	assetId: number;
	eventTypeId: number;
	vendor: string;
	price: number;
	purchaseDate: string;
}

/** What one run of the workflow did, read from the node outputs and the sandbox. */
export interface PassSummary {
	status: IRun['status'];
	error: string | null;
	acquisitions: IDataObject[];
	todos: IDataObject[];
	billing: IDataObject[];
	/** Sandbox counters and records added by this run. */
	applied: number;
	replays: number;
	requests: RecordedRequest[];
	newRecords: {
		acquisitions: number;
		todos: number;
		billingChanges: number;
		assetEvents: number;
		subscriptionEvents: number;
	};
}
