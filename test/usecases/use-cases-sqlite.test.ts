import { tempSqlite } from '../store/temp-database.js';
import { useCaseSuite } from './use-cases.suite.js';

useCaseSuite('SQLite (temp file)', tempSqlite);
