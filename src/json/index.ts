export { findNonJSON, isPlainObject, type JSONCheck, type JSONValue, type NonJSON, toJSONValue } from './json-value';
export {
  createPartialJsonParser,
  type PartialJsonParser,
  type PartialJsonResult,
  type PartialJsonState,
  parsePartialJson,
} from './partial-json-parser';
