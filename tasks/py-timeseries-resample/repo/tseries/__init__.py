"""tseries: regular resampling of irregular time series."""
from .aggregate import AGGREGATIONS
from .resample import FILLS, downsample, upsample
from .series import Series

__all__ = ["AGGREGATIONS", "FILLS", "Series", "downsample", "upsample"]
