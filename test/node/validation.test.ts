import { nodeOutput } from '../harness/engine';
import { runError, runInventory, useSandbox } from './util';

const env = useSandbox();

describe('bad input is refused before anything is sent', () => {
	test.each([
		[
			'a blank name',
			{ resource: 'asset', operation: 'createTodo', assetId: '1001', name: '  ' },
			'Name is required [item 0]',
		],
		[
			'a non-numeric asset ID',
			{ resource: 'asset', operation: 'createTodo', assetId: 'A-1001', name: 'Label' },
			'Asset ID must be a numeric ID (a whole number of 1 or more), got "A-1001" [item 0]',
		],
		[
			'per license without a license count',
			{
				resource: 'subscription',
				operation: 'updateBilling',
				subscriptionId: '2002',
				priceModel: 'per_license',
				cost: 5,
				billingFrequency: 'monthly',
				licenseCount: '',
			},
			'License Count is required with the Per License price model [item 0]',
		],
		[
			'a payment without a billing frequency',
			{
				resource: 'asset',
				operation: 'recordAcquisition',
				assetId: '1001',
				eventTypeId: '302',
				additionalFields: { paymentPlan: { plan: { payment: 10 } } },
			},
			'Billing Frequency is required [item 0]',
		],
		[
			'a concurrency option out of range',
			{
				resource: 'asset',
				operation: 'createTodo',
				assetId: '1001',
				name: 'Label',
				options: { concurrency: 0 },
			},
			'Fixed Concurrency must be between 1 and 50, got 0 [item 0]',
		],
		[
			'a fractional retry option',
			{
				resource: 'asset',
				operation: 'createTodo',
				assetId: '1001',
				name: 'Label',
				options: { maxRetries: 2.5 },
			},
			'Max Retries must be a whole number, got 2.5 [item 0]',
		],
	])('%s', async (_case, parameters, message) => {
		const { sandbox } = env;
		const run = await runInventory(sandbox, [{}], parameters);
		expect(runError(run).message).toBe(message);
		expect(runError(run).description).toMatch(
			/Nothing was sent to the Inventory API for this item\.$/,
		);
		expect(sandbox.requests()).toHaveLength(0);
	});

	test('with Continue, only the bad item fails and is named', async () => {
		const { sandbox } = env;
		const run = await runInventory(
			sandbox,
			[{ cost: 10 }, { cost: 10.555 }, { cost: 12 }],
			{
				resource: 'subscription',
				operation: 'updateBilling',
				subscriptionId: '={{ 2001 + $itemIndex }}',
				priceModel: 'lump_sum',
				cost: '={{ $json.cost }}',
				billingFrequency: 'yearly',
			},
			{ node: { onError: 'continueRegularOutput' } },
		);
		expect(
			nodeOutput(run, 'Inventory').map(({ json }) => json.error ?? json.subscription_id),
		).toEqual([
			2001,
			'Cost must have at most two decimal places, got 10.555: round it in the expression, e.g. {{ Math.round($json.cost * 100) / 100 }} (gives 10.56) [item 1]',
			2003,
		]);
		expect(sandbox.requests().map(({ path }) => path)).toEqual([
			'/api/v1/subscriptions/2001/billing',
			'/api/v1/subscriptions/2003/billing',
		]);
	});
});
