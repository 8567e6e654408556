"""NumPy's DLPack support by version, for tests that lean on NumPy as the peer framework.

Before NumPy 2.1 ``ndarray.__dlpack__`` takes no ``max_version`` (so it only makes legacy
capsules) and ``np.from_dlpack`` always returns read-only arrays. Tests that write through an
imported array, or ask NumPy for a versioned capsule, need 2.1; on older NumPy they skip.
"""

from __future__ import annotations

import numpy as np
import pytest

NUMPY_HAS_DLPACK_V1 = np.lib.NumpyVersion(np.__version__) >= "2.1.0"

needs_numpy_dlpack_v1 = pytest.mark.skipif(
    not NUMPY_HAS_DLPACK_V1, reason=f"NumPy {np.__version__} predates versioned DLPack and writable imports (2.1)")
