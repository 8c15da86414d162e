import { tempSqlite } from '../store/temp-database.js';
import { billingSuite } from './billing.suite.js';

billingSuite('SQLite (temp file)', tempSqlite);
