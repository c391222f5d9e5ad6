// Type test (tsc --strict --noEmit, run by test/types.test.ts): the provider
// SDKs' own types go into every function that takes a call, a message or a
// recorded call without a cast, and a replay answer narrows on `hit`. The
// SDK types have no index signature, which is why the parameters are
// structural (`object`), not `Record<string, unknown>`. Nothing runs here.
import type { ChatCompletion, ChatCompletionMessage, ChatCompletionMessageToolCall } from "openai/resources/chat/completions";
import type { Response as OpenAIResponse, ResponseFunctionToolCall } from "openai/resources/responses/responses";
import type { Message, ToolUseBlock } from "@anthropic-ai/sdk/resources/messages";
import type { LanguageModelV3ToolCall } from "@ai-sdk/provider";
import type { AssistantModelMessage, StepResult, ToolSet, TypedToolCall } from "ai";
import type { CallToolRequest, JSONRPCRequest } from "@modelcontextprotocol/sdk/types.js";
import type { AIMessage, StoredMessage } from "@langchain/core/messages";
import {
  diff, explainCall, explainCalls, fingerprintBatch, fingerprintCall, nearest, Recording,
  type Explanation, type NearestMatch, type ReplayAnswer,
} from "../../src/index";

declare const completion: ChatCompletion;
declare const message: ChatCompletionMessage;
declare const toolCall: ChatCompletionMessageToolCall;
declare const response: OpenAIResponse;
declare const functionCall: ResponseFunctionToolCall;
declare const anthropicMessage: Message;
declare const toolUse: ToolUseBlock;
declare const providerCall: LanguageModelV3ToolCall;
declare const typedCall: TypedToolCall<ToolSet>;
declare const step: StepResult<ToolSet>;
declare const assistant: AssistantModelMessage;
declare const mcpRequest: CallToolRequest;
declare const wire: JSONRPCRequest;
declare const aiMessage: AIMessage;
declare const stored: StoredMessage;
declare const rec: Recording;

export const messages: Explanation[][] = [
  explainCalls(completion), explainCalls(message), explainCalls(response), explainCalls(response.output),
  explainCalls(anthropicMessage), explainCalls(anthropicMessage.content), explainCalls(step.content),
  explainCalls(assistant), explainCalls(aiMessage), explainCalls(stored), explainCalls([toolUse, toolCall]),
];
export const calls: string[] = [
  fingerprintCall(toolCall), fingerprintCall(functionCall), fingerprintCall(toolUse), fingerprintCall(providerCall),
  fingerprintCall(typedCall), fingerprintCall(mcpRequest), fingerprintCall(wire), fingerprintCall(aiMessage.tool_calls![0]),
  explainCall(toolUse).fingerprint,
  ...fingerprintBatch([toolCall, toolUse, functionCall, '{"name":"t","args":{}}']),
];

const near: NearestMatch<ToolUseBlock> | null = nearest(toolUse, [toolUse, toolUse]);
export const recordedInput: unknown = near?.call.input;
export const same: boolean = diff(toolUse, functionCall).same && diff(toolCall, explainCall(toolUse)).same;

// The answer narrows on `hit`: a hit has the recorded line, a miss the why.
const answer: ReplayAnswer = rec.answer(toolUse);
export const out: unknown = answer.hit ? answer.value.result : answer.why;
if (answer.hit) {
  // @ts-expect-error a hit has no why
  answer.why;
} else {
  // @ts-expect-error a miss has no recorded value
  answer.value;
}
