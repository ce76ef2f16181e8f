// The tables room: the row types of every table and the column helpers they share. The server's
// way in; engine code imports the modules themselves.
export { jsonValue } from './columns.ts';
