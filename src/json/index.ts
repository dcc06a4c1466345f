export { isPlainObject, type JSONCheck, type JSONValue, toJSONValue } from './json-value';
export {
  createPartialJsonParser,
  type PartialJsonParser,
  type PartialJsonResult,
  type PartialJsonState,
  parsePartialJson,
} from './partial-json-parser';
