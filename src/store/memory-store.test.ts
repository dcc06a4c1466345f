import { storeContract } from '../../test/store-contract';
import { createMemoryStore } from './memory-store';

storeContract('createMemoryStore', (clock) => createMemoryStore({ now: clock.now }));
