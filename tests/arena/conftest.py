"""Arena tests: the ``ray`` marker (a local Ray instance; skipped where Ray is not installed)."""


def pytest_configure(config):
    config.addinivalue_line("markers", "ray: runs the arena on a local Ray instance (CI runs it)")
