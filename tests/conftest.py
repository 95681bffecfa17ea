"""Settings for the whole suite.

Under mutation testing (``tools/mutate.py`` sets ``HICKORY_MUTATE``) a property test only
has to notice that something is wrong, not explain it: hypothesis skips shrinking the
failing example, which otherwise takes minutes per killed mutant.
"""

from __future__ import annotations

import os

from hypothesis import Phase, settings

if os.environ.get("HICKORY_MUTATE"):
    settings.register_profile("mutate", phases=(Phase.explicit, Phase.reuse, Phase.generate))
    settings.load_profile("mutate")
