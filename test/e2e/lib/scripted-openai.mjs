// A scripted OpenAI-compatible chat model for the agent checks: plain node:http on 127.0.0.1 (a free
// port), no network. n8n's "OpenAI Chat Model" node talks to it through an `openAiApi` credential whose
// Base URL is `<this server>/v1`.
//
// `POST /v1/chat/completions` answers from a script: a function of the request (its messages and
// tools) that returns the assistant's next message, either tool calls or a final text. The answer is a
// chat completion, or server-sent events when the request asks for a stream. Every request body is
// kept (`requests`), so a check can assert what the agent sent to the model: the tools' names,
// descriptions and parameters, and the tool results.
import http from 'node:http';

import { freePort } from './util.mjs';

/** A tool call of the assistant's next message. */
export const toolCall = (id, name, args) => ({
	id,
	type: 'function',
	function: { name, arguments: JSON.stringify(args) },
});

/** The `tool` messages the agent sent back so far (the tool results), in order. */
export const toolResults = (request) => request.messages.filter((m) => m.role === 'tool');

/** The name of the tool whose name starts with `prefix` (n8n derives tool names from node names). */
export function toolNamed(request, prefix) {
	const tool = (request.tools ?? []).find((t) => t.function?.name?.startsWith(prefix));
	if (!tool)
		throw new Error(
			`no tool starting with "${prefix}" in the request (tools: ${(request.tools ?? []).map((t) => t.function?.name).join(', ')})`,
		);
	return tool.function.name;
}

export class ScriptedChatModel {
	/** @param {(request: object) => {content?: string, tool_calls?: object[]}} script */
	constructor(script) {
		this.script = script;
		this.requests = [];
		this.unexpected = [];
	}

	get baseUrl() {
		return `http://127.0.0.1:${this.port}/v1`;
	}

	async start() {
		this.port = await freePort();
		this.server = http.createServer((req, res) => this.handle(req, res));
		await new Promise((resolve, reject) => {
			this.server.once('error', reject);
			this.server.listen(this.port, '127.0.0.1', resolve);
		});
		return this;
	}

	async stop() {
		if (!this.server) return;
		this.server.closeAllConnections?.();
		await new Promise((resolve) => this.server.close(() => resolve()));
		this.server = null;
	}

	reset() {
		this.requests = [];
		this.unexpected = [];
	}

	async handle(req, res) {
		const chunks = [];
		for await (const chunk of req) chunks.push(chunk);
		const text = Buffer.concat(chunks).toString('utf8');
		if (req.method !== 'POST' || !req.url.endsWith('/chat/completions')) {
			this.unexpected.push(`${req.method} ${req.url}`);
			res.writeHead(404, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ error: { message: `not scripted: ${req.method} ${req.url}` } }));
			return;
		}
		let request;
		let message;
		try {
			request = JSON.parse(text);
			this.requests.push(request);
			message = this.script(request);
		} catch (error) {
			res.writeHead(500, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ error: { message: `script failed: ${error.message}` } }));
			this.unexpected.push(`script failed: ${error.message}`);
			return;
		}
		const id = `chatcmpl-scripted-${this.requests.length}`;
		const finishReason = message.tool_calls?.length ? 'tool_calls' : 'stop';
		const usage = { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 };
		const base = { id, created: Math.floor(Date.now() / 1000), model: request.model };
		if (request.stream) {
			res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
			const send = (body) =>
				res.write(
					`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', ...body })}\n\n`,
				);
			const toolCalls = message.tool_calls?.map((call, index) => ({ index, ...call }));
			send({
				choices: [
					{
						index: 0,
						delta: {
							role: 'assistant',
							content: message.content ?? '',
							...(toolCalls ? { tool_calls: toolCalls } : {}),
						},
						finish_reason: null,
					},
				],
			});
			send({ choices: [{ index: 0, delta: {}, finish_reason: finishReason }] });
			send({ choices: [], usage });
			res.end('data: [DONE]\n\n');
			return;
		}
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end(
			JSON.stringify({
				...base,
				object: 'chat.completion',
				choices: [
					{
						index: 0,
						message: {
							role: 'assistant',
							content: message.content ?? null,
							...(message.tool_calls ? { tool_calls: message.tool_calls } : {}),
						},
						finish_reason: finishReason,
					},
				],
				usage,
			}),
		);
	}
}
