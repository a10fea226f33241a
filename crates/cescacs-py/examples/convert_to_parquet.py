"""The documented Spark job (docs/scaling.md): every game under a path or URL to Parquet.

spark-submit ... convert_to_parquet.py INPUT OUTPUT
"""

import sys

from pyspark.sql import SparkSession

import cescacs.spark


def main() -> None:
    source, out = sys.argv[1], sys.argv[2]
    spark = SparkSession.builder.appName("cescacs-to-parquet").getOrCreate()
    df = cescacs.spark.read_games(spark, source)
    df.write.mode("overwrite").parquet(out)
    spark.stop()


if __name__ == "__main__":
    main()
