-- The server supervisor (docs/architecture.md "Server supervisor"): no two ClickHouse server processes are given
-- the same port (the provisioner also keeps HTTP and TCP ports apart when it chooses them).
CREATE UNIQUE INDEX clickhouse_processes_http_port_key ON clickhouse_processes (http_port);
CREATE UNIQUE INDEX clickhouse_processes_tcp_port_key ON clickhouse_processes (tcp_port);
