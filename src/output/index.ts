export { checkJSONSchema, jsonSchemaProblem } from './check-json-schema';
export type { OutputOf, OutputSchema, StandardIssue, StandardResult, StandardSchema } from './output-schema';
