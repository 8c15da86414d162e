import { storeContract } from './store.contract.js';
import { tempSqlite } from './temp-database.js';

storeContract('SQLite (temp file)', tempSqlite);
