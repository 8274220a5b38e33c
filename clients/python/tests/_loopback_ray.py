"""The `ray` command line with loopback addresses kept as given. Ray 2.58 replaces 127.0.0.1 in
`--node-ip-address` and `--address` with the machine's outward address
(`ray._private.services.resolve_ip_for_localhost`), which would send the test cluster's traffic
over the external interface; the tests must talk over 127.0.0.1 only."""
import sys

import ray._private.services as services


def keep_loopback():
    """Make Ray keep 127.0.0.1 / localhost as given, in this process."""
    services.resolve_ip_for_localhost = lambda host: host


if __name__ == "__main__":
    keep_loopback()
    from ray.scripts.scripts import main

    sys.argv[0] = "ray"
    sys.exit(main())
